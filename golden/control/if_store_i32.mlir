entry @if_store_i32(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = constant <i32: 2> : tile<i32>
  %10 = remi %1, %9 signed : tile<i32>
  %11 = constant <i32: 0> : tile<i32>
  %12 = cmpi equal %10, %11, signed : tile<i32> -> tile<i1>
  %13 = if %12 -> (token) {
    %14 = constant <i32: 2> : tile<128xi32>
    %15 = muli %7, %14 : tile<128xi32>
    %16 = assume div_by<16>, %arg1 : tile<ptr<i32>>
    %17 = make_tensor_view %16, shape = [1024], strides = [1] : tensor_view<1024xi32, strides=[1]>
    %18 = make_partition_view %17 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>
    %19 = store_view_tko weak %15, %18[%1] token = %8 : tile<128xi32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>, tile<i32> -> token
    yield %19 : token
  } else {
    %20 = constant <i32: 1> : tile<128xi32>
    %21 = addi %7, %20 : tile<128xi32>
    %22 = assume div_by<16>, %arg1 : tile<ptr<i32>>
    %23 = make_tensor_view %22, shape = [1024], strides = [1] : tensor_view<1024xi32, strides=[1]>
    %24 = make_partition_view %23 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>
    %25 = store_view_tko weak %21, %24[%1] token = %8 : tile<128xi32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>, tile<i32> -> token
    yield %25 : token
  }
  return
}
