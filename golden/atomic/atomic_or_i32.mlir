entry @atomic_or_i32(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = reshape %arg1 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %10 = broadcast %9 : tile<1xptr<i32>> -> tile<128xptr<i32>>
  %11 = constant <i32: 16> : tile<128xi32>
  %12 = remi %7, %11 signed : tile<128xi32>
  %13 = addi %12, %11 : tile<128xi32>
  %14 = remi %13, %11 signed : tile<128xi32>
  %15 = offset %10, %14 : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
  %16 = constant <i32: 128> : tile<i32>
  %17 = muli %1, %16 : tile<i32>
  %18 = reshape %17 : tile<i32> -> tile<1xi32>
  %19 = broadcast %18 : tile<1xi32> -> tile<128xi32>
  %20 = iota : tile<128xi32>
  %21 = addi %19, %20 : tile<128xi32>
  %22 = constant <i32: 1000> : tile<128xi32>
  %23 = cmpi less_than %21, %22, signed : tile<128xi32> -> tile<128xi1>
  %24, %25 = atomic_rmw_tko acquire device %15, or, %7, %23 token=%8 : tile<128xptr<i32>>, tile<128xi32>, tile<128xi1> -> tile<128xi32>, token
  return
}
