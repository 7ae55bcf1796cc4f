entry @loop_first_hit_i32(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = constant <i32: 0> : tile<i32>
  %5, %6 = loop iter_values(%7 = %4, %8 = %0) : tile<i32>, token -> tile<i32>, token {
    %9 = constant <i32: 16> : tile<i32>
    %10 = cmpi greater_than_or_equal %7, %9, signed : tile<i32> -> tile<i1>
    if %10 {
      %11 = muli %7, %4 : tile<i32>
      %12 = constant <i32: 1> : tile<i32>
      %13 = subi %11, %12 : tile<i32>
      break %13, %8 : tile<i32>, token
    } else {
    }
    %14 = assume div_by<16>, %arg0 : tile<ptr<i32>>
    %15 = make_tensor_view %14, shape = [4096], strides = [1] : tensor_view<4096xi32, strides=[1]>
    %16 = make_partition_view %15 : partition_view<tile=(256), padding_value = zero, tensor_view<4096xi32, strides=[1]>>
    %17, %18 = load_view_tko weak %16[%7] token = %8 : partition_view<tile=(256), padding_value = zero, tensor_view<4096xi32, strides=[1]>>, tile<i32> -> tile<256xi32>, token
    %19 = reduce %17 dim=0 identities=[-2147483648 : i32] : tile<256xi32> -> tile<i32> 
    (%20: tile<i32>, %21: tile<i32>) {
      %22 = maxi %20, %21 signed : tile<i32>
      yield %22 : tile<i32>
    }
    %23 = cmpi greater_than_or_equal %19, %arg1, signed : tile<i32> -> tile<i1>
    if %23 {
      break %7, %18 : tile<i32>, token
    } else {
    }
    %24 = constant <i32: 1> : tile<i32>
    %25 = addi %7, %24 : tile<i32>
    continue %25, %18 : tile<i32>, token
  }
  %26 = reshape %5 : tile<i32> -> tile<1xi32>
  %27 = assume div_by<16>, %arg2 : tile<ptr<i32>>
  %28 = make_tensor_view %27, shape = [1], strides = [1] : tensor_view<1xi32, strides=[1]>
  %29 = make_partition_view %28 : partition_view<tile=(1), padding_value = zero, tensor_view<1xi32, strides=[1]>>
  %30 = store_view_tko weak %26, %29[%1] token = %6 : tile<1xi32>, partition_view<tile=(1), padding_value = zero, tensor_view<1xi32, strides=[1]>>, tile<i32> -> token
  return
}
