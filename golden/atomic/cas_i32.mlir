entry @cas_i32(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>, %arg2: tile<ptr<i32>>, %arg3: tile<ptr<i32>>, %arg4: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %10 = make_tensor_view %9, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %11 = make_partition_view %10 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %12, %13 = load_view_tko weak %11[%1] token = %8 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %14 = assume div_by<16>, %arg2 : tile<ptr<i32>>
  %15 = make_tensor_view %14, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %16 = make_partition_view %15 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %17, %18 = load_view_tko weak %16[%1] token = %13 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %19 = reshape %arg3 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %20 = broadcast %19 : tile<1xptr<i32>> -> tile<128xptr<i32>>
  %21 = offset %20, %17 : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
  %22 = constant <i32: 128> : tile<i32>
  %23 = muli %1, %22 : tile<i32>
  %24 = reshape %23 : tile<i32> -> tile<1xi32>
  %25 = broadcast %24 : tile<1xi32> -> tile<128xi32>
  %26 = iota : tile<128xi32>
  %27 = addi %25, %26 : tile<128xi32>
  %28 = constant <i32: 1000> : tile<128xi32>
  %29 = cmpi less_than %27, %28, signed : tile<128xi32> -> tile<128xi1>
  %30, %31 = atomic_cas_tko acquire device %21, %7, %12, %29 token=%18 : tile<128xptr<i32>>, tile<128xi32>, tile<128xi1> -> tile<128xi32>, token
  %32 = assume div_by<16>, %arg4 : tile<ptr<i32>>
  %33 = make_tensor_view %32, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %34 = make_partition_view %33 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %35 = store_view_tko weak %30, %34[%1] token = %31 : tile<128xi32>, partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> token
  return
}
